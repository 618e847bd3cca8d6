// Issue #37 against the real kilo: tests/realcli/approvals-suite.ts.
import { describeApprovals } from "../approvals-suite.ts";

describeApprovals("kilo");
