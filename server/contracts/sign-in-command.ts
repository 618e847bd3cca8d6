/**
 * What a person who is not signed in should do: the one command that always gives them a working sign-in link,
 * whatever happened to the first URL od printed. The guard, the session routes and the signed-out page all say it.
 * Plain strings, no schema: the guard loads this before zod.
 */
export const SIGN_IN_COMMAND = "od open";
export const SIGN_IN_ADVICE = `run \`${SIGN_IN_COMMAND}\` in a terminal (or \`${SIGN_IN_COMMAND} --print\` for a URL to paste)`;
