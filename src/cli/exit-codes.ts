// Process exit codes of the CLIs besides 0 = done (documented in docs/experiments.md). A non-finite
// stop has its own code so that schedulers do not retry it: the same seed and config diverge again,
// deterministically.
/** Any other failure (bad input file, engine error). */
export const EXIT_ERROR = 1;
/** Bad command line. */
export const EXIT_USAGE = 2;
/** A run stopped at a non-finite metric (NaN/Inf); its output holds the frames up to that step. */
export const EXIT_NON_FINITE = 3;
