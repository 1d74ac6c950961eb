// Node: `node runtimes/node.mjs` (the `node:crypto` build of @drops/auth).
import { createServer } from 'node:http';
import { createVerifyBench } from './verify-app.mjs';

const handle = await createVerifyBench();
const server = createServer(async (req, res) => {
  const answer = await handle(new Request(`http://127.0.0.1${req.url}`));
  res.writeHead(answer.status).end(await answer.text());
});
server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
