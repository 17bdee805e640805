/**
 * The callback thread's program (thread-transport.ts starts it; bundled as dist/callback-thread.js):
 * posts what the main thread hands it through an inline transport of its own and answers with the
 * outcomes. Batches both ways: the posts of one main-thread turn come as one message, the outcomes
 * that end in one turn here go back as one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AttemptOutcome } from './repo.js';
import { type CallbackPost, createInlineTransport, type TransportOptions } from './transport.js';

const port = parentPort;
if (!port) throw new Error('thread-main.ts runs on a worker thread (thread-transport.ts)');
const transport = createInlineTransport(workerData as TransportOptions);

let outcomes: Array<[number, AttemptOutcome]> = [];
const answer = () => {
  port.postMessage(outcomes);
  outcomes = [];
};

port.on('message', (posts: Array<[number, CallbackPost]>) => {
  for (const [id, post] of posts) {
    void transport.post(post).then((outcome) => {
      if (outcomes.push([id, outcome]) === 1) setImmediate(answer);
    });
  }
});
port.postMessage([]); // ready: the program loaded
