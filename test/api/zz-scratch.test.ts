// scratch
import { test } from 'node:test';
import { startService, prematchEvent, liveEventMessages, result } from '../helpers/service.js';
test('scratch', async () => {
  const s = await startService();
  console.log(s.service.app.printRoutes({ commonPrefix: false }));
  for (const u of ['/docs', '/docs/', '/openapi.json']) {
    const r = await s.get(u, {key: null});
    console.log(u, r.status, r.headers['content-type'], r.headers.location, r.text.slice(0, 300));
  }
  const oa = (await s.get('/openapi.json')).body as any;
  console.log(Object.keys(oa.paths), oa.openapi);
  await s.service.store.close();
  for (const u of ['/v1/health', '/readyz', '/v1/events/zz/result']) {
    const r = await s.get(u);
    console.log(u, r.status, r.text.slice(0, 500));
  }
  const r = await s.get('/v1/events', {key: 'other'});
  console.log(r.status, r.text);
  await s.close();
});
