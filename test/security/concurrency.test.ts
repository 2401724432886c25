import { randomUUID } from 'node:crypto';
import type { Member, World } from '../helpers/factories';
import { fetchChecked } from '../helpers/openapi-contract';
import { flagPaths, roleSteps } from '../helpers/roles';
import { startTestApp, type ApiResponse, type TestApp } from '../helpers/test-app';

/**
 * Races over real HTTP: many clients at once on one object, and exactly one winner, the others
 * refused with the documented answer (never a 500), the database holding one row. Complements the
 * 8-way duplicates of test/rest/roles.test.ts and the 20-way person race of test/ingestion/persons.test.ts.
 */

let app: TestApp;
let world: World;
let editor: Member;
let flags: ReturnType<typeof flagPaths>;
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

const statuses = (answers: ApiResponse[]) =>
  Object.fromEntries(
    [...new Set(answers.map((a) => a.status))].sort().map((status) => [status, answers.filter((a) => a.status === status).length]),
  );

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  editor = await app.factories.member(world.organization, 'admin');
  flags = flagPaths(world.project.id);
});
afterAll(() => app.close());

describe('one flag version, many writers (docs/rest-api.md §3.9)', () => {
  it('lets exactly one of 50 concurrent PATCHes of version 1 through; the other 49 hear 409', async () => {
    const flag = (await app.request(flags.flags, { method: 'POST', key: world.owner.key, body: { key: unique('raced') } })).body;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.request(flags.flag(flag.id), {
          method: 'PATCH',
          key: i % 2 ? editor.key : world.owner.key,
          body: { name: `writer ${i}`, version: 1 },
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 409: 49 });
    const winner = answers.find((a) => a.status === 200)!;
    expect(winner.body.version).toBe(2);
    const winnerIndex = answers.indexOf(winner);
    const winnerEmail = winnerIndex % 2 ? editor.user.email : world.owner.user.email;
    for (const loser of answers.filter((a) => a.status === 409)) {
      expect(loser.body).toEqual({
        type: 'server_error',
        code: 'conflict',
        detail: `The feature flag was updated by ${winnerEmail} since you started editing it. Please refresh and try again.`,
        attr: null,
      });
    }
    const stored = (await app.request(flags.flag(flag.id), { key: world.owner.key })).body;
    expect(stored).toMatchObject({ name: winner.body.name, version: 2 });
  });

  it('lets exactly one through when REST and GraphQL writers race', async () => {
    const flag = (await app.request(flags.flags, { method: 'POST', key: world.owner.key, body: { key: unique('raced-both') } })).body;
    const mutation =
      'mutation($p: ID!, $id: Int!, $input: FeatureFlagUpdateInput!) { updateFeatureFlag(projectId: $p, id: $id, input: $input) { version } }';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? app
              .request(flags.flag(flag.id), { method: 'PATCH', key: editor.key, body: { name: `rest ${i}`, version: 1 } })
              .then((res) => (res.status === 200 ? 'won' : String(res.status)))
          : app
              .graphql(mutation, { p: String(world.project.id), id: flag.id, input: { name: `gql ${i}`, version: 1 } }, editor.key)
              .then((res) => (res.body.data?.updateFeatureFlag?.version === 2 ? 'won' : res.body.errors?.[0]?.extensions?.code)),
      ),
    );
    expect(answers.filter((a) => a === 'won')).toHaveLength(1);
    expect(answers.filter((a) => a !== 'won').every((a) => a === '409' || a === 'CONFLICT')).toBe(true);
    expect((await app.request(flags.flag(flag.id), { key: editor.key })).body.version).toBe(2);
  });
});

describe('one new flag key, many creators (docs/rest-api.md §3.2)', () => {
  it('creates exactly one flag from 30 concurrent POSTs of one key; the others hear unique', async () => {
    const key = unique('one-key');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.request(flags.flags, { method: 'POST', key: i % 2 ? editor.key : world.owner.key, body: { key, name: `creator ${i}` } }),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 400: 29 });
    for (const loser of answers.filter((a) => a.status === 400)) {
      expect(loser.body).toEqual({
        type: 'validation_error',
        code: 'unique',
        detail: 'There is already a feature flag with this key.',
        attr: 'key',
      });
    }
    const rows = await app.factories.sql('select id from feature_flag where project_id = ? and key = ?', [world.project.id, key]);
    expect(rows.map((r) => Number(r.id))).toEqual([answers.find((a) => a.status === 201)!.body.id]);
  });

  it('creates exactly one flag when a soft-deleted holder of the key is replaced concurrently (docs/rest-api.md §3.4)', async () => {
    const key = unique('reborn');
    const first = (await app.request(flags.flags, { method: 'POST', key: world.owner.key, body: { key } })).body;
    expect((await app.request(flags.flag(first.id), { method: 'PATCH', key: world.owner.key, body: { deleted: true } })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => app.request(flags.flags, { method: 'POST', key: world.owner.key, body: { key } })),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 400: 19 });
    const rows = await app.factories.sql('select id, deleted from feature_flag where project_id = ? and key = ?', [world.project.id, key]);
    expect(rows).toEqual([{ id: answers.find((a) => a.status === 201)!.body.id, deleted: false }]);
  });
});

describe('ingestion: one new distinct id from many requests (docs/ingestion.md §5)', () => {
  it('makes exactly one person for 30 concurrent /batch/ requests, keeping every event', async () => {
    const distinctId = unique('new-person');
    const uuids = Array.from({ length: 30 }, () => randomUUID());
    const answers = await Promise.all(
      uuids.map((uuid, i) =>
        fetchChecked(`${app.baseUrl}/batch/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            api_key: world.project.apiToken,
            batch: [{ event: 'raced', uuid, distinct_id: distinctId, properties: { $set: { [`p${i}`]: i } } }],
          }),
        }).then((res) => res.status),
      ),
    );
    expect(answers).toEqual(Array(30).fill(200));
    const persons = await app.factories.sql(
      'select p.uuid::text as uuid, p.properties from person p join person_distinct_id d on d.person_id = p.id where d.project_id = ? and d.distinct_id = ?',
      [world.project.id, distinctId],
    );
    expect(persons).toHaveLength(1);
    expect(Object.keys(persons[0].properties).sort()).toEqual(uuids.map((_, i) => `p${i}`).sort());
    const distinct = await app.factories.sql('select count(*)::int as n from person_distinct_id where project_id = ? and distinct_id = ?', [
      world.project.id,
      distinctId,
    ]);
    expect(distinct[0].n).toBe(1);
    const events = await app.factories.sql('select uuid::text as uuid, person_id from event where project_id = ? and distinct_id = ?', [
      world.project.id,
      distinctId,
    ]);
    expect(events.map((e) => e.uuid).sort()).toEqual([...uuids].sort());
    expect(new Set(events.map((e) => String(e.person_id)))).toEqual(new Set([persons[0].uuid]));
  });
});

describe('role access: one role granted to one flag by many requests (docs/rest-api.md §5.4)', () => {
  it('stores exactly one record for 25 concurrent grants; the others hear unique', async () => {
    const steps = roleSteps(app);
    const role = await steps.createRole(world.organization, world.owner.key, { name: unique('granted-once') });
    const flag = await steps.createFlag(world.project.id, world.owner.key, { key: unique('granted-flag') });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        app.request(flags.roleAccesses(flag.id), { method: 'POST', key: i % 2 ? editor.key : world.owner.key, body: { role_id: role.id } }),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 1, 400: 24 });
    for (const loser of answers.filter((a) => a.status === 400)) {
      expect(loser.body).toEqual({
        type: 'validation_error',
        code: 'unique',
        detail: 'This role already has access to this feature flag.',
        attr: 'role_id',
      });
    }
    const rows = await app.factories.sql('select id from feature_flag_role_access where feature_flag_id = ? and role_id = ?', [
      flag.id,
      role.id,
    ]);
    expect(rows).toHaveLength(1);
  });
});
