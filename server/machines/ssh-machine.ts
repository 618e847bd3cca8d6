/** A host reached with the system's OpenSSH client over one shared, private control connection (control-dir.ts). */
import type { SshLocation } from "./machine-url.ts";
import { RemoteMachine } from "./remote-machine.ts";

export class SshMachine extends RemoteMachine<SshLocation> {
  readonly kind = "ssh" as const;
}
