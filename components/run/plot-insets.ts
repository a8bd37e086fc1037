/**
 * Where the plot area sits inside every chart, strip and lane of the run page, so one turn is at
 * the same x everywhere: the value axis takes `left` px, `right` px stay free on the right.
 */
export const PLOT_INSETS = { left: 68, right: 30 } as const;
/** recharts margins that, with a YAxis of width `left - 4`, put the plot at PLOT_INSETS. */
export const CHART_MARGIN = { top: 8, right: PLOT_INSETS.right, bottom: 0, left: 4 } as const;
export const Y_AXIS_WIDTH = PLOT_INSETS.left - CHART_MARGIN.left;
