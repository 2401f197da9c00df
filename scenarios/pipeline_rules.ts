/**
 * The rules of a read-process-write pipeline client that the schema cannot express: it needs a
 * `transactional.id` and a `group.id` (ExactlyOnceMessageProcessor), an `output.topic` that exists
 * and is not one of its input topics, and `offsets.commit: auto-commit` needs `enable.auto.commit:
 * true` (the misuse it names is the consumer committing positions on its own).
 */
import type { ClientEntry, Problem } from './schema';

/** Appends every broken pipeline rule of `client` to `problems`. */
export function checkPipeline(options: {
  readonly client: ClientEntry;
  readonly index: number;
  readonly topicNames: ReadonlySet<string>;
  readonly problems: Problem[];
}): void {
  const { client, index, topicNames, problems } = options;
  const base = ['clients', index] as const;
  for (const key of ['transactional.id', 'group.id'] as const) {
    if (client.config[key] !== undefined) continue;
    const detail = 'is required for a read-process-write pipeline';
    problems.push({ path: [...base, 'config', key], detail });
  }
  const output = client.workload['output.topic'];
  if (output !== undefined && !topicNames.has(output)) {
    const detail = `unknown topic ${output}: expected one of ${[...topicNames].join(', ')}`;
    problems.push({ path: [...base, 'workload', 'output.topic'], detail });
  } else if (output !== undefined && client.workload.topics.includes(output)) {
    const detail = 'must not be one of the input topics';
    problems.push({ path: [...base, 'workload', 'output.topic'], detail });
  }
  const autoCommit = client.config['enable.auto.commit'] ?? true;
  if (client.workload['offsets.commit'] === 'auto-commit' && !autoCommit) {
    const detail = 'auto-commit needs config enable.auto.commit: true';
    problems.push({ path: [...base, 'workload', 'offsets.commit'], detail });
  }
}
