import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AgentEvent } from "../../../server/contracts/events.ts";
import { ArtifactSpool, planArtifacts, slugify, writeArtifacts } from "../../../server/runtimes/streams/artifacts.ts";
import { tempDir } from "../../support/temp.ts";

const block = (identifier: string, type: string, body = "x") => `<artifact identifier="${identifier}" type="${type}" title="T">\n${body}\n</artifact>`;

describe("planArtifacts", () => {
  test("every supported type maps to its extension; unsupported types are skipped", () => {
    const types: [string, string][] = [
      ["text/html", "html"], ["html", "html"], ["text/css", "css"], ["css", "css"], ["image/svg+xml", "svg"], ["svg", "svg"],
      ["text/markdown", "md"], ["text/x-markdown", "md"], ["markdown", "md"], ["md", "md"],
    ];
    types.forEach(([type, ext], i) => {
      expect(planArtifacts(block(`a${i}`, type)).map((p) => p.name)).toEqual([`a${i}.${ext}`]);
    });
    expect(planArtifacts(block("code", "application/javascript"))).toEqual([]);
    expect(planArtifacts("no artifacts here")).toEqual([]);
  });

  test("body, attributes in any order and quote style", () => {
    const text = "before <artifact type='text/css' identifier='Main Styles'>\n\nbody { }\n  \n</artifact> after";
    expect(planArtifacts(text)).toEqual([{ name: "main-styles.css", content: "body { }\n", identifier: "Main Styles", artifactType: "text/css" }]);
  });

  test("collisions get -2, -3 (within the output and against existing files)", () => {
    const text = [block("page", "html"), block("page", "html"), block("page", "html"), block("page", "md")].join("\n");
    expect(planArtifacts(text).map((p) => p.name)).toEqual(["page.html", "page-2.html", "page-3.html", "page.md"]);
    expect(planArtifacts(block("page", "html"), ["page.html", "page-2.html"]).map((p) => p.name)).toEqual(["page-3.html"]);
  });

  test("traversal attempts stay inside the folder", () => {
    for (const id of ["../../x", "/etc/passwd", "..\\..\\evil", ".hidden", "a/../../b", "..", "", "%2e%2e%2fx"]) {
      const [plan] = planArtifacts(block(id, "html"));
      expect(plan?.name).toMatch(/^[a-z0-9][a-z0-9._-]*\.html$/);
      expect(plan?.name.includes("..")).toBe(false);
      expect(plan?.name.includes("/")).toBe(false);
    }
    expect(slugify("../../x")).toBe("x");
    expect(slugify("")).toBe("artifact");
    expect(slugify("Landing Page!")).toBe("landing-page");
  });

  test("an identifier that already ends with the extension is not doubled", () => {
    expect(planArtifacts(block("index.html", "text/html")).map((p) => p.name)).toEqual(["index.html"]);
  });
});

describe("writeArtifacts", () => {
  test("writes files, avoids existing names, returns valid artifact events", () => {
    using dir = tempDir("od-artifacts-");
    writeFileSync(join(dir.path, "landing.html"), "keep me");
    const events = writeArtifacts(`${block("landing", "text/html", "<p>new</p>")}\n${block("../../escape", "svg", "<svg/>")}`, dir.path);
    expect(events).toEqual([
      { type: "artifact", source: "plain-stream", name: "landing-2.html", path: "landing-2.html", identifier: "landing", artifactType: "text/html" },
      { type: "artifact", source: "plain-stream", name: "escape.svg", path: "escape.svg", identifier: "../../escape", artifactType: "svg" },
    ]);
    for (const e of events) expect(AgentEvent.safeParse(e).success).toBe(true);
    expect(readFileSync(join(dir.path, "landing.html"), "utf8")).toBe("keep me");
    expect(readFileSync(join(dir.path, "landing-2.html"), "utf8")).toBe("<p>new</p>\n");
    expect(readdirSync(dir.path).sort()).toEqual(["escape.svg", "landing-2.html", "landing.html"]);
  });

  test("no artifact → nothing written, folder not created", () => {
    using dir = tempDir("od-artifacts-");
    expect(writeArtifacts("plain answer", join(dir.path, "sub"))).toEqual([]);
    expect(existsSync(join(dir.path, "sub"))).toBe(false);
  });
});

describe("ArtifactSpool (streaming)", () => {
  const samples = [
    `intro ${block("landing", "text/html", "<h1>Hi</h1>\n<p>x</p>")} middle ${block("notes", "md", "  indented\n\n")} end`,
    "before <artifact type='text/css' identifier='Main Styles'>\n\nbody { }\n  \n</artifact> after",
    `${block("page", "html")}${block("page", "html")}<ARTIFACT type="svg" identifier="s">\r\n<svg/>\r\n</Artifact  >`,
    `<artifactx type="html">not a tag</artifactx> ${block("code", "application/javascript", "skipped </artifac t>")} ${block("ok", "html", "é😀 </art> ok")}`,
    `${block("blank", "html", " \n \t ")}<artifact type="html" identifier="unclosed">never ends`,
  ];

  test("finds the same artifacts as planArtifacts however the text is cut", () => {
    for (const text of samples) {
      const expected = planArtifacts(text).map((p) => [p.name, p.content]);
      for (const size of [1, 2, 3, 5, 7, 11, 64, text.length]) {
        using dir = tempDir("od-artifacts-");
        using spool = new ArtifactSpool();
        for (let at = 0; at < text.length; at += size) spool.push(text.slice(at, at + size));
        const events = spool.commit(dir.path);
        expect(events.map((e) => [e.name, readFileSync(join(dir.path, e.path!), "utf8")])).toEqual(expected);
      }
    }
  });

  test("dispose without commit writes nothing and removes the spooled bodies", () => {
    using dir = tempDir("od-artifacts-");
    const spool = new ArtifactSpool();
    spool.push(block("landing", "html", "<p>x</p>"));
    spool[Symbol.dispose]();
    expect(spool.commit(dir.path)).toEqual([]);
    expect(readdirSync(dir.path)).toEqual([]);
  });
});
