// The public surface of the transparency feature (issue 19 items 7-8): /transparency,
// /transparency/payouts, /stats.
export { transparencyRouter } from "./transparency.index";
export { transparency, listPaidPayouts } from "./transparency.service";
export { publicStats } from "./stats.service";
