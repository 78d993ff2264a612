// The shipped lesson experiments, file 3 of 3 (tests/e2e/shipped-experiments.ts says which and why split).
import { describeShippedExperiments } from './shipped-experiments';

describeShippedExperiments(3);
