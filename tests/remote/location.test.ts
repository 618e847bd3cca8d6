import { describe, expect, test } from "bun:test";
import { formatLocation, LocationError, parseLocation, parseMachineLocation } from "../../server/machines/machine-url.ts";
import { dockerExecArgv, remoteShellArgv, sshArgv } from "../../server/machines/transport-argv.ts";

describe("parseLocation", () => {
  test("local paths are returned unchanged", () => {
    expect(parseLocation("/home/me/app")).toEqual({ kind: "local", path: "/home/me/app" });
    expect(parseLocation("relative/dir")).toEqual({ kind: "local", path: "relative/dir" });
  });

  test("ssh URLs: user, host, port and an absolute path (folded)", () => {
    expect(parseLocation("ssh://dev@box.example:2222/srv/app")).toEqual({ kind: "ssh", user: "dev", host: "box.example", port: 2222, path: "/srv/app" });
    expect(parseLocation("ssh://box/srv/a/../b/./c/")).toEqual({ kind: "ssh", host: "box", path: "/srv/b/c" });
    expect(parseLocation("ssh://[::1]:22/x")).toEqual({ kind: "ssh", host: "[::1]", port: 22, path: "/x" });
    expect(parseLocation("ssh://box/dir with 'quotes' $(x)")).toEqual({ kind: "ssh", host: "box", path: "/dir with 'quotes' $(x)" });
  });

  test("docker URLs: a container and an absolute path", () => {
    expect(parseLocation("docker://sandbox-1/workspace")).toEqual({ kind: "docker", container: "sandbox-1", path: "/workspace" });
  });

  test.each([
    ["host that is an option", "ssh://-oProxyCommand=evil/x"],
    ["user that is an option", "ssh://-l@box/x"],
    ["host with a space", "ssh://a b/x"],
    ["port 0", "ssh://box:0/x"],
    ["port out of range", "ssh://box:99999/x"],
    ["port that is not a number", "ssh://box:22x/x"],
    ["no path", "ssh://box"],
    ["no host", "ssh:///x"],
    ["NUL in the path", "ssh://box/x\0y"],
    ["container that is an option", "docker://-it/x"],
    ["container with shell syntax", "docker://c;rm/x"],
    ["no path", "docker://c"],
  ])("refuses a %s", (_reason, url) => {
    expect(() => parseLocation(url)).toThrow(LocationError);
  });

  test("formatLocation gives the canonical URL back", () => {
    for (const url of ["ssh://dev@box:2222/srv/app", "ssh://box/x", "docker://c1/w"]) expect(formatLocation(parseLocation(url))).toBe(url);
  });
});

describe("argv builders", () => {
  test("ssh: batch mode, one multiplexed connection per host, the config file, port and user as options", () => {
    expect(sshArgv({ kind: "ssh", host: "box", user: "dev", port: 2222, path: "/x" }, "sh -c 'true'", { controlDir: "/run/od", sshConfig: "/cfg" })).toEqual([
      "ssh",
      "-T",
      "-o", "BatchMode=yes",
      "-o", "ControlMaster=auto",
      "-o", "ControlPath=/run/od/%C",
      "-o", "ControlPersist=60",
      "-o", "ConnectTimeout=10",
      "-o", "ServerAliveInterval=15",
      "-o", "ServerAliveCountMax=3",
      "-F", "/cfg",
      "-p", "2222",
      "-l", "dev",
      "--",
      "box",
      "sh -c 'true'",
    ]);
    expect(sshArgv({ kind: "ssh", host: "box", path: "/x" }, "c", { controlDir: "/d" })).not.toContain("StrictHostKeyChecking=no");
  });

  test("docker: exec -i, the container after --, argv passed as words (docker quotes nothing)", () => {
    expect(dockerExecArgv({ kind: "docker", container: "c1", path: "/w" }, ["sh", "-s", "$(id)"])).toEqual(["docker", "exec", "-i", "--", "c1", "sh", "-s", "$(id)"]);
  });

  test("the remote command is the same plain words for every script: scripts and arguments travel on stdin", () => {
    const ssh = remoteShellArgv({ kind: "ssh", host: "box", path: "/x" }, { controlDir: "/d" });
    expect(ssh.slice(-3)).toEqual(["--", "box", "exec sh -s"]);
    expect(ssh.at(-1)).toMatch(/^[a-z -]+$/);
    expect(remoteShellArgv({ kind: "docker", container: "c", path: "/x" }, { controlDir: "/d" })).toEqual(["docker", "exec", "-i", "--", "c", "sh", "-s"]);
  });
});

describe("parseMachineLocation", () => {
  test("takes a machine or container URL with or without a folder; the root stands for a missing one", () => {
    expect(parseMachineLocation("ssh://me@box:2222")).toEqual({ kind: "ssh", user: "me", host: "box", port: 2222, path: "/" });
    expect(parseMachineLocation("ssh://box/srv/app")).toEqual({ kind: "ssh", host: "box", path: "/srv/app" });
    expect(parseMachineLocation("docker://dev")).toEqual({ kind: "docker", container: "dev", path: "/" });
    expect(() => parseMachineLocation("/srv/app")).toThrow(LocationError);
    expect(() => parseMachineLocation("ssh://-oProxyCommand=x")).toThrow(LocationError);
    expect(() => parseMachineLocation("docker://")).toThrow(LocationError);
  });
});
