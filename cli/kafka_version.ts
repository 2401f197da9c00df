/**
 * `--kafka-version` on `run` and `sweep`: the Kafka release to model instead of each file's
 * `kafka.version` (scenarios/kafka_versions.ts lists them).
 */
import { KAFKA_VERSIONS, isModelledVersion } from '../scenarios';
import { UsageError } from './errors';

/**
 * Validates a `--kafka-version` value; undefined passes through.
 * @throws {@link UsageError} for a release eos-sim does not model.
 * @example parseKafkaVersion('3.7') // '3.7'
 */
export function parseKafkaVersion(text: string | undefined): string | undefined {
  if (text === undefined || isModelledVersion(text)) return text;
  throw new UsageError(
    `--kafka-version must be a modelled Kafka release (${KAFKA_VERSIONS.join(', ')}; ` +
      `a patch such as 3.7.1 is taken): got "${text}"`,
  );
}
