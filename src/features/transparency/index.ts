// The public surface of the transparency feature (issue 19 items 7-8): /transparency,
// /transparency/payouts, /stats.
export { publicStats } from "./stats.service";
export { transparencyRouter } from "./transparency.index";
export { listPaidPayouts, transparency } from "./transparency.service";
