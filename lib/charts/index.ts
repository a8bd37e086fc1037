/** Pure chart preparers for the run page (architecture habit 8): units, thresholds, markers, downsampling. */
export { buildTimeline, DEFAULT_MAX_POINTS, spansOf, TIMELINE_EVENT_TYPES, type BuildTimelineOptions } from "./build-timeline";
export { downsample, thinSeries, type SeriesPoint } from "./downsample";
export { thresholdsFor } from "./thresholds";
export { reminderLanes, expandReminders, MARKER_STATUSES } from "./reminder-lanes";
export { meterSeries, stageChanges, type MeterSeries } from "./meter-series";
export { modelRequestBars, otlpRecordName, type ModelRequestBar } from "./model-requests";
