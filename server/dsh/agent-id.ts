/** The only agent with a companion to set up: its id, in a module of its own so naming it loads no setup code. */
export const DSH_AGENT_ID = "deepseek-harness";
