/** A running container reached with the Docker CLI (`docker exec -i`). */
import type { DockerLocation } from "./machine-url.ts";
import { RemoteMachine } from "./remote-machine.ts";

export class DockerMachine extends RemoteMachine<DockerLocation> {
  readonly kind = "docker" as const;
}
