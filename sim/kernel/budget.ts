/**
 * The error a run raises when it outgrows a named bound (`eventsMax`, a collection's cap): the
 * runner turns it into the `budget-exceeded` outcome and the CLI into exit code 4, instead of a
 * silent drop or an out-of-memory crash.
 */
export class BudgetExceededError extends Error {
  readonly code = 'SIM_BUDGET_EXCEEDED';
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}
