// The daemon's checkpoint after runs end (server/store/checkpoint-soon.ts): one a moment after runs end together,
// and none while the disk is full, whose room is for the failing run's last records.
import { expect, test } from "bun:test";
import { checkpointSoon } from "../../server/store/checkpoint-soon.ts";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("runs that end together share one checkpoint, made after the delay", async () => {
  let checkpoints = 0;
  const afterRun = checkpointSoon({ checkpoint: () => void checkpoints++ }, { full: false }, 5);
  afterRun();
  afterRun();
  expect(checkpoints).toBe(0);
  await settle(30);
  expect(checkpoints).toBe(1);
  afterRun();
  await settle(30);
  expect(checkpoints).toBe(2);
});

test("no checkpoint while the disk is full; the next one once there is room again", async () => {
  let checkpoints = 0;
  const space = { full: true };
  const afterRun = checkpointSoon({ checkpoint: () => void checkpoints++ }, space, 5);
  afterRun();
  await settle(30);
  expect(checkpoints).toBe(0);
  space.full = false;
  afterRun();
  await settle(30);
  expect(checkpoints).toBe(1);
});

test("a database closed meanwhile (the daemon stopping) is no error", async () => {
  const afterRun = checkpointSoon({ checkpoint: () => { throw new Error("database closed"); } }, { full: false }, 5);
  afterRun();
  await settle(30);
});
