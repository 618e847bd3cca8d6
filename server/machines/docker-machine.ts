/** A running container reached with the Docker CLI (`docker exec -i`). */
import { watchContainer } from "./container-liveness.ts";
import type { AgentProcessSpec, AgentStart, RunSweeper } from "./machine.ts";
import type { DockerLocation } from "./machine-url.ts";
import { RemoteMachine } from "./remote-machine.ts";

export class DockerMachine extends RemoteMachine<DockerLocation> {
  readonly kind = "docker" as const;

  /** `docker exec` has no keep-alive of its own: a paused container would hold the run forever. */
  override startAgent(spec: AgentProcessSpec, sweeper: RunSweeper): AgentStart {
    return { ...super.startAgent(spec, sweeper), watch: (lost) => watchContainer(this.location, this.context, lost) };
  }
}
