// Issue #37 against the real pi: tests/realcli/approvals-suite.ts.
import { describeApprovals } from "../approvals-suite.ts";

describeApprovals("pi");
