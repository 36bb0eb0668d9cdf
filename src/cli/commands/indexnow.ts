import { commandGroup } from '../internal/command-group.ts';
import { indexnowSubmit } from './indexnow-submit.ts';

export const indexnow = commandGroup(
  'waymark indexnow',
  'tell search engines what changed, with the IndexNow protocol',
  {
    submit: indexnowSubmit,
  },
);
