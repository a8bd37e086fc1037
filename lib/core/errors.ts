/** The events given to the core cannot form one run. Carries no transport details. */
export class RunInputError extends Error {
  constructor(
    message: string,
    readonly eventId?: string,
  ) {
    super(message);
    this.name = "RunInputError";
  }
}
