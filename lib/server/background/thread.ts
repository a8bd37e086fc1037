import { parentPort } from "node:worker_threads";
import { serveTasks } from "@/lib/server/jobs/threads";
import { TASKS } from "./tasks";

/** A job thread: answers each task message with its result or its error. */
serveTasks(parentPort, TASKS);
