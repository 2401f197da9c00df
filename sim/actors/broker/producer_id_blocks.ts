/**
 * Producer ids come in blocks of 1000, as the controller hands them out to brokers
 * (ProducerIdManager, KIP-730; TransactionCoordinator.handleInitProducerId): broker i of N uses
 * blocks i, i + N, i + 2N, ..., so no two brokers ever grant the same id.
 */
const PRODUCER_ID_BLOCK_SIZE = 1000;

/**
 * The `allocated`-th producer id (0-based) of the broker at `brokerIndex` among `brokers`.
 * @example producerIdAt(1, 3, 1000) // 4000: broker 1's second block is block 4
 */
export function producerIdAt(brokerIndex: number, brokers: number, allocated: number): number {
  const block = brokerIndex + brokers * Math.floor(allocated / PRODUCER_ID_BLOCK_SIZE);
  return block * PRODUCER_ID_BLOCK_SIZE + (allocated % PRODUCER_ID_BLOCK_SIZE);
}
