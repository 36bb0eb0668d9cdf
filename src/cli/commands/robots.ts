import { commandGroup } from '../internal/command-group.ts';
import { robotsCheck } from './robots-check.ts';
import { robotsLint } from './robots-lint.ts';

export const robots = commandGroup(
  'waymark robots',
  'Read and check robots.txt files, exactly as Google does.',
  {
    check: robotsCheck,
    lint: robotsLint,
  },
);
