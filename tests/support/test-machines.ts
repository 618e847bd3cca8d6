/** The test sshd and the test Docker engine together, for suites that run once per machine kind. */
import { afterAll, beforeAll } from "bun:test";
import type { RemoteContext } from "../../server/machines/remote-exec.ts";
import { startTestDocker, type TestDocker } from "./dockerd.ts";
import { SSH_TEST_HOST, startTestSshd, type TestSshd } from "./sshd.ts";

export type TestMachines = { sshd: TestSshd; docker: TestDocker };

/** Starts both before the file's tests and stops them after; the returned object is filled once they run. */
export function useTestMachines(): TestMachines {
  const machines = {} as TestMachines;
  beforeAll(async () => {
    [machines.sshd, machines.docker] = await Promise.all([startTestSshd(), startTestDocker()]);
  }, 120_000);
  afterAll(async () => {
    machines.sshd?.close();
    await machines.docker?.close();
  }, 60_000);
  return machines;
}

/**
 * One kind of machine a project can be on: its URL for a folder, and the context od reaches it with (none for this
 * machine). `sendsOnlyRunEnv`: the agent there gets only the environment a run sends (what the user configured, od's
 * own variables), never the daemon's; here it inherits the daemon's. `copiesSkills`: a run's skills are copied to its
 * staging folder there; here the agent reads the skill folders themselves.
 */
export type MachineKind = {
  name: string;
  url: (dir: string) => string;
  context: () => RemoteContext | undefined;
  sendsOnlyRunEnv: boolean;
  copiesSkills: boolean;
};

/** This machine, the test sshd and a container of the test Docker engine (read once `machines` have started). */
export function machineKinds(machines: TestMachines): MachineKind[] {
  return [
    { name: "this machine", url: (dir) => dir, context: () => undefined, sendsOnlyRunEnv: false, copiesSkills: false },
    {
      name: "an ssh host",
      url: (dir) => `ssh://${SSH_TEST_HOST}${dir}`,
      context: () => ({ env: { ...process.env, ...machines.sshd.env }, controlDir: machines.sshd.controlDir }),
      sendsOnlyRunEnv: true,
      copiesSkills: true,
    },
    {
      name: "a container",
      url: (dir) => `docker://${machines.docker.container}${dir}`,
      context: () => ({ env: { ...process.env, ...machines.docker.env } }),
      sendsOnlyRunEnv: true,
      copiesSkills: true,
    },
  ];
}

/** The runHarness options that put a project on `kind`: its URL for a folder, and the context od reaches it with. */
export function onMachine(kind: MachineKind): { projectPath: (dir: string) => string; remote?: RemoteContext } {
  const remote = kind.context();
  return { projectPath: kind.url, ...(remote ? { remote } : {}) };
}
