// The public surface of the transparency feature: /transparency,
// /transparency/payouts, /stats.
export { publicStats } from "./stats.service";
export { transparencyRouter } from "./transparency.index";
export { listPaidPayouts, transparency } from "./transparency.service";
