// The shipped lesson experiments, file 1 of 3 (tests/e2e/shipped-experiments.ts says which and why split).
import { describeShippedExperiments } from './shipped-experiments';

describeShippedExperiments(1);
