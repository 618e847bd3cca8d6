/** Skill ids are folder names: lower-case, digits, `.`, `_`, `-`. Free of zod: the skill library lists folders with it. */
export const SKILL_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,79}$/;
