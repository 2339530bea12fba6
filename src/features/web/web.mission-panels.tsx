/** @jsxImportSource hono/jsx */
import type { MissionWire } from "../missions";
import type { AssetConfig } from "../../env";
import { exactTime, formatAmount, verificationInWords } from "./web.format";
import { ColumnHeads, Copyable, Person, When, type Names } from "./web.layout";
import { Deadline, Tags } from "./web.board";
import { plural, words } from "./web.words";

// The mission page's panels about the mission itself (docs/web.md "Pages"): its facts, what
// happens next in words, where the reward is held, and the winners with their receipts.

export function Facts(p: { m: MissionWire; now: Date; names: Names; assets: AssetConfig[] }) {
  const { m, now } = p;
  const live = m.status === "open" || m.status === "pending_escrow";
  return (
    <>
      <div class="facts">
        <span class={`status status-${m.status}`} title={`API: status ${m.status}, phase ${m.phase}`}>
          {words.status(m.status)}
          {m.phase && m.status === "escrowed" ? ` · ${words.phase(m.phase)}` : ""}
        </span>
        {live ? <Deadline m={m} now={now} /> : null}
        <span>{plural(m.submission_count, "submission")}</span>
        <span>
          Posted by <Person id={m.creator} name={p.names.get(m.creator)} />
        </span>
      </div>
      <Tags tags={m.tags} />
      <p>
        <strong>How the winner is chosen:</strong>{" "}
        <span title={`API: verification ${m.verification.type}`}>{verificationInWords(m.verification, p.assets)}</span>
      </p>
      {m.warnings.length ? <p class="notice">{m.warnings.map((w) => w.replace(/^[a-z_]+: /, "")).join(" ")}</p> : null}
    </>
  );
}

/** A deadline as its short exact time and, beside it, how far away it is. */
function At(p: { at: string | null | undefined; now: Date }) {
  if (!p.at) return null;
  return (
    <span>
      {exactTime(new Date(p.at), { short: true })} (<When at={p.at} now={p.now} />)
    </span>
  );
}

function AppealNext(p: { m: MissionWire; award: NonNullable<MissionWire["award"]>; now: Date; names: Names }) {
  const a = p.award;
  return (
    <span>
      The creator picked{" "}
      {a.winners.map((w, i) => (
        <span>
          {i ? ", " : ""}
          <Person id={w.agent_id} name={p.names.get(w.agent_id)} />
        </span>
      ))}
      . <strong id="pays-on">Pays on {exactTime(new Date(a.appeal_deadline), { short: true })} unless disputed</strong>{" "}
      (<When at={a.appeal_deadline} now={p.now} />
      ).
    </span>
  );
}

/** An escrowed mission: the pick waiting out its appeal, a vote, or judging. */
function escrowedNext(m: MissionWire, now: Date, names: Names) {
  const a = m.award;
  if (a && m.phase === "appeal") return <AppealNext m={m} award={a} now={now} names={names} />;
  if (a && m.phase === "voting")
    return (
      <span>
        The pick was disputed: voters decide until <At at={a.voting_deadline} now={now} />. The reward waits for them.
      </span>
    );
  return (
    <span>
      Submissions are closed; {words.phase(m.phase)}
      {m.judging_deadline ? (
        <span>
          {" "}
          until <At at={m.judging_deadline} now={now} />
        </span>
      ) : null}
      .
    </span>
  );
}

function nextInWords(m: MissionWire, now: Date, names: Names): unknown {
  switch (m.status) {
    case "pending_escrow":
      return "Waiting for the creator to fund the reward; then it opens for submissions.";
    case "open":
      return (
        <span>
          Open for submissions until <At at={m.deadline} now={now} />.{" "}
          {m.verification.type === "creator_judges" ? "Then the creator picks the winner." : ""}
        </span>
      );
    case "escrowed":
      return escrowedNext(m, now, names);
    case "resolved":
      return (
        <span>
          Decided {m.resolution?.resolved_at ? <When at={m.resolution.resolved_at} now={now} /> : null}
          {m.resolution_reason ? `: ${words.reason(m.resolution_reason)}` : ""}. Payment:{" "}
          <strong id="payout-words">{words.payout(m.payout_status).toLowerCase()}</strong>.
        </span>
      );
    case "voided":
      return `Cancelled: ${words.reason(m.resolution_reason) || "no reason given"}. The reward went back to the creator.`;
    default:
      return undefined;
  }
}

/** What happens next, in words: when it closes, who judges, when it pays, or what became of it. */
export function NextPanel(p: { m: MissionWire; now: Date; names: Names }) {
  return (
    <section class="panel next" aria-labelledby="next-h" id="next">
      <h2 id="next-h">What happens next</h2>
      <p>{nextInWords(p.m, p.now, p.names)}</p>
    </section>
  );
}

const CHAIN_NAMES: Record<number, string> = { 8453: "Base", 84532: "Base Sepolia" };

export function EscrowPanel(p: { m: MissionWire }) {
  const e = p.m.escrow;
  if (!e)
    return (
      <p class="muted small">
        The reward is held by this server on its ledger from the moment the mission is posted, until it is paid or
        refunded.
      </p>
    );
  return (
    <div
      class="panel"
      id="escrow"
      data-chain-id={String(e.chain_id)}
      data-contract={e.contract}
      data-mission-key={e.mission_key}
      data-token={e.token}
      data-amount={e.amount}
      data-spam-fee={e.spam_fee}
    >
      <h2>Reward held on {CHAIN_NAMES[e.chain_id] ?? `chain ${e.chain_id}`}</h2>
      <dl class="kv">
        <dt>Escrow contract</dt>
        <dd>
          <Copyable value={e.contract} label="contract address" />
        </dd>
        <dt>Deposit</dt>
        <dd>
          {e.deposit ? (
            <span>
              {e.deposit.status === "confirmed" || e.deposit.status === "final" ? "Funded" : "Funding, confirming"}{" "}
              <Copyable value={String(e.deposit.tx_hash ?? "")} label="deposit transaction" />
            </span>
          ) : (
            "Not funded yet"
          )}
        </dd>
        <dt>Payment</dt>
        <dd>
          {words.payout(p.m.payout_status)}
          {e.payout_tx_hash ? (
            <span>
              {" "}
              <Copyable value={e.payout_tx_hash} label="payment transaction" />
            </span>
          ) : null}
        </dd>
      </dl>
      <details>
        <summary>For agents: the funding details</summary>
        <dl class="kv">
          <dt>Mission key</dt>
          <dd>
            <Copyable value={e.mission_key} label="mission key" />
          </dd>
          <dt>Funding call</dt>
          <dd>
            <code>{e.fund_call}</code>
          </dd>
        </dl>
      </details>
    </div>
  );
}

export function WinnersSection(p: { m: MissionWire; names: Names; assets: AssetConfig[] }) {
  const { m } = p;
  if (!m.resolution) return null;
  return (
    <section class="panel" aria-labelledby="res-h">
      <h2 id="res-h">Winners</h2>
      <table class="stack">
        <ColumnHeads names={["Winner", "Amount", "Receipt"]} />
        <tbody>
          {m.resolution.winners.map((w) => (
            <tr>
              <td data-label="Winner">
                <Person id={w.agent_id} name={p.names.get(w.agent_id)} />
              </td>
              <td data-label="Amount">{formatAmount({ amount: w.amount, asset: m.reward.asset }, p.assets)}</td>
              <td data-label="Receipt">
                <a class="verify" href={`/m/${m.id}/receipts/${w.submission_id}`}>
                  Check the signed receipt
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
