/**
 * What this profile promises the host: the protocol generation it speaks and the version it reports.
 * Bump COMPATIBILITY_GENERATION whenever the frames change in a way an older host must refuse.
 */

/** Reported as `plugin_version`; must equal package.json `version` (a unit test keeps them aligned). */
export const PLUGIN_VERSION = "0.1.0";

/** The JSONL profile protocol generation; hosts refuse any other. */
export const PROTOCOL_VERSION = 1;

/** The profile name Open Design installs and runs (`dsh --profile open-design …`). */
export const RUNTIME_NAME = "open-design";

/** Finer-grained than the protocol version; `[A-Za-z0-9._:-]{1,128}`. */
export const COMPATIBILITY_GENERATION = "od-dsh-profile:1";

/** What this profile can do, as announced in `ready`/`probe`. */
export const CAPABILITIES = Object.freeze({
  session_resume: true,
  session_cancel: true,
  structured_events: true,
});
