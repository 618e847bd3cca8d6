/** The test sshd and the test Docker engine together, for suites that run once per machine kind. */
import { afterAll, beforeAll } from "bun:test";
import { startTestDocker, type TestDocker } from "./dockerd.ts";
import { startTestSshd, type TestSshd } from "./sshd.ts";

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
