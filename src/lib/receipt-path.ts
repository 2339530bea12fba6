/** AIP-1 §6.1 receipt path (the manifest's receipt_endpoint_template, filled in). */
export const receiptPath = (missionId: string, submissionId: string) =>
  `/missions/${missionId}/receipts/${submissionId}`;
