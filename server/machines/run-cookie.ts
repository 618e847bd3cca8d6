/**
 * The per-run cookie every agent process carries in its environment, on whichever machine it runs, so what is left
 * of a run can be found and ended after its process group is gone (the local sweep, a remote host's sweep script).
 */
export const RUN_COOKIE_VAR = "OD_RUN_ID";
