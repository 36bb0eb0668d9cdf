import { commandGroup } from '../internal/command-group.ts';
import { robotsAgents } from './robots-agents.ts';
import { robotsAudit } from './robots-audit.ts';
import { robotsCheck } from './robots-check.ts';
import { robotsGenerate } from './robots-generate.ts';
import { robotsLint } from './robots-lint.ts';

export const robots = commandGroup(
  'waymark robots',
  'read, check, audit and write robots.txt files, exactly as Google reads them',
  {
    agents: robotsAgents,
    audit: robotsAudit,
    check: robotsCheck,
    generate: robotsGenerate,
    lint: robotsLint,
  },
);
