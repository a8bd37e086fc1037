export { normalQuantile, Z975, studentT975 } from "./quantiles";
export { wilsonInterval } from "./wilson";
export { newcombeDifference } from "./newcombe";
export { meanInterval, type MeanInterval, type MeanSums } from "./mean";
export { poissonRateInterval } from "./poisson";
export { ratioDifference, ratioInterval, type RatioInterval, type RatioSums } from "./ratio";
export { theilSen, type RobustFit } from "./theil-sen";
