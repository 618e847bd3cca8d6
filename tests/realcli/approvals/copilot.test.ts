// Issue #37 against the real copilot: tests/realcli/approvals-suite.ts.
import { describeApprovals } from "../approvals-suite.ts";

describeApprovals("copilot");
