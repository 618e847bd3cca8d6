import { describe, expect, test } from "bun:test";
import { createApi } from "../../web/api/client.ts";
import { createConfigModel } from "../../web/state/config.ts";
import { fakeFetch } from "../support/web-fake-fetch.ts";

describe("config model", () => {
  test("agent and model choices apply at once, before the daemon answers the PUT", async () => {
    let answer!: (response: Response) => void;
    const { fetch } = fakeFetch({
      "GET /api/app-config": () => Response.json({ config: { agentModels: { codex: { model: "o3" }, claude: { model: "haiku" } } } }),
      "PUT /api/app-config": () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const config = createConfigModel(createApi(fetch));
    await config.load();

    const saving = config.update({ agentId: "claude", agentModels: { claude: { model: "opus", reasoning: "high" }, codex: null } });
    expect(config.config.value.agentId).toBe("claude");
    expect(config.choiceFor("claude")).toEqual({ model: "opus", reasoning: "high" });
    expect(config.choiceFor("codex")).toEqual({});

    answer(Response.json({ config: { agentId: "claude", agentModels: { claude: { model: "opus", reasoning: "high" } } } }));
    await saving;
    expect(config.choiceFor("claude")).toEqual({ model: "opus", reasoning: "high" });
    expect(config.error.value).toBeNull();
  });
});
