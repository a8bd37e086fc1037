export * from "./primitives";
export * from "./issues";
export * from "./reminders";
export * from "./policy";
export * from "./copy";
export * from "./events";
export * from "./decisions";
export * from "./api";
