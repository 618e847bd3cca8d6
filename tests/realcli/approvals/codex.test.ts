// Issue #37 against the real codex: tests/realcli/approvals-suite.ts.
import { describeApprovals } from "../approvals-suite.ts";

describeApprovals("codex");
