/**
 * A real Docker engine for the docker:// tests: Debian's `dockerd` started on a private socket in a temp folder
 * (no iptables, no bridge: containers get no network), a minimal image imported from an empty root with the usual
 * usr-merge links, and one container that bind-mounts /usr (read-only), the temp dir and this checkout (read-only),
 * so the fake CLIs run inside it. Needs root and Debian's `docker.io` (`.ci/run` installs it); without them the
 * helper throws, so the tests fail with that message instead of skipping.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tempDir } from "./temp.ts";

const DOCKERD = "/usr/sbin/dockerd";
const REPO_ROOT = join(import.meta.dir, "..", "..");

export type TestDocker = {
  container: string;
  /** Starts one more container like `container` (same image and mounts); returns its name. */
  another(): string;
  /** Starts a container of the same image with no shell in it (only `sleep` in /usr/bin); returns its name. */
  withoutShell(): string;
  /** Env for the local side: DOCKER_HOST set to the private engine. */
  env: Record<string, string>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

export async function startTestDocker(): Promise<TestDocker> {
  if (!existsSync(DOCKERD) || process.getuid?.() !== 0) throw new Error("docker.io is not installed or this is not root: the docker:// tests need a real Docker engine");
  const temp = tempDir("od-dockerd-");
  const dir = temp.path;
  const env = { ...process.env, DOCKER_HOST: `unix://${join(dir, "docker.sock")}` } as Record<string, string>;
  const docker = (args: string[], timeout = 60_000) => execFileSync("docker", args, { env, encoding: "utf8", timeout, stdio: ["ignore", "pipe", "pipe"] }).trim();
  const daemon: ChildProcess = spawn(
    DOCKERD,
    ["--data-root", join(dir, "data"), "--exec-root", join(dir, "exec"), "--pidfile", join(dir, "dockerd.pid"), "-H", env.DOCKER_HOST!, "--iptables=false", "--ip6tables=false", "--bridge=none"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  daemon.stderr?.on("data", (chunk) => (log = (log + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => daemon.once("exit", () => resolve()));
  const stop = async () => {
    daemon.kill("SIGTERM");
    await exited;
    // dockerd bind-mounts its data root onto itself; a stop that did not undo it would keep the folder busy.
    const dataRoot = join(dir, "data");
    if (readFileSync("/proc/mounts", "utf8").split("\n").some((line) => line.split(" ")[1] === dataRoot)) {
      execFileSync("umount", [dataRoot], { stdio: "ignore" });
    }
    temp[Symbol.dispose]();
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        docker(["info", "--format", "{{.ServerVersion}}"], 10_000);
        break;
      } catch (error) {
        if (Date.now() > deadline || daemon.exitCode !== null) throw new Error(`dockerd did not start: ${log.trim().split("\n").slice(-3).join(" | ")}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const root = join(dir, "rootfs");
    for (const folder of ["proc", "sys", "dev", "tmp", "etc", "usr", "root"]) mkdirSync(join(root, folder), { recursive: true });
    for (const [link, target] of [["bin", "usr/bin"], ["sbin", "usr/sbin"], ["lib", "usr/lib"], ["lib64", "usr/lib64"]]) symlinkSync(target!, join(root, link!));
    writeFileSync(join(root, "etc", "passwd"), "root:x:0:0:root:/root:/bin/sh\n");
    writeFileSync(join(root, "etc", "group"), "root:x:0:\n");
    execFileSync("tar", ["-C", root, "-cf", join(dir, "rootfs.tar"), "."]);
    const image = `od-test-rootfs:${Date.now()}`;
    docker(["import", join(dir, "rootfs.tar"), image]);
    const tmp = tmpdir();
    let count = 0;
    const another = () => {
      const name = `od-test-${process.pid}-${Date.now()}-${count++}`;
      docker(["run", "-d", "--name", name, "--network", "none", "-v", "/usr:/usr:ro", "-v", `${tmp}:${tmp}`, "-v", `${REPO_ROOT}:${REPO_ROOT}:ro`, image, "sleep", "3600"]);
      return name;
    };
    const withoutShell = () => {
      const name = `od-test-noshell-${process.pid}-${Date.now()}-${count++}`;
      const bin = join(dir, `bin-${count}`);
      mkdirSync(bin);
      copyFileSync("/usr/bin/sleep", join(bin, "sleep"));
      chmodSync(join(bin, "sleep"), 0o755);
      const libs = ["/usr/lib", "/usr/lib64"].filter((lib) => existsSync(lib)).flatMap((lib) => ["-v", `${lib}:${lib}:ro`]);
      docker(["run", "-d", "--name", name, "--network", "none", ...libs, "-v", `${bin}:/usr/bin:ro`, image, "sleep", "3600"]);
      return name;
    };
    const container = another();
    const close = async () => {
      try {
        docker(["rm", "-f", container]);
      } catch {
        // The engine stops it anyway.
      }
      await stop();
    };
    return { container, another, withoutShell, env: { DOCKER_HOST: env.DOCKER_HOST! }, close, [Symbol.asyncDispose]: close };
  } catch (error) {
    await stop();
    throw error;
  }
}
