// Issue #37 against the real qwen: tests/realcli/approvals-suite.ts.
import { describeApprovals } from "../approvals-suite.ts";

describeApprovals("qwen");
