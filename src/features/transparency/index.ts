// The public surface of the transparency feature: /transparency,
// /transparency/payouts, /stats.
export { transparencyRouter } from "./transparency.index";
