// The board's controls (`drawBoard(controls, extra)` in board.js) as the actions the prompt's
// buttons make: the table page sends them over its socket, the lesson page to the lesson's API.
// Each page says how it sends an action, what a click on a card does and what a dimmed card's
// reason does.
import { state } from "./state.js";

export function promptControls(send, { onCard, onReason }) {
  return {
    onCard,
    onBid: () => send({ type: "bid", cards: [...state.selected] }),
    onPass: () => send({ type: "pass" }),
    onDiscard: () => send({ type: "discard", cards: [...state.selected] }),
    onTrump: (trump) => send({ type: "trump", trump }),
    onPartner: (seat) => send({ type: "partner", seat }),
    onReason,
  };
}
