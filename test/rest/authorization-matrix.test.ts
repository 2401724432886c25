import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';
import { CANNOT_EDIT_FLAG, CANNOT_EDIT_ROLES, flagPaths, forbidden, roleSteps } from '../helpers/roles';

/**
 * Who may do what to one flag, as a matrix. Rows are callers, columns are operations on flag F:
 * GET the flag, PATCH it, POST a role-access record to it, DELETE one of its records, and the
 * `can_edit` the GET shows.
 *
 * Two rules meet here and they differ on purpose:
 *  - flag edits (docs/rest-api.md §2.5): creator, admin, organization level 37, a level-37 role, OR a role with a
 *    role-access record for the flag;
 *  - role-access POST/DELETE (docs/rest-api.md §5.4): creator, admin, organization level 37, a level-37 role — but
 *    NOT a level-21 role holding a record (a record lets you edit the flag, not hand it out).
 *
 * F lives in organization R whose flag access level is 21 (created by "flag creator", a member
 * with no roles). The row "member without roles, org level 37" acts on a flag made by someone
 * else in organization O, which keeps the default level 37.
 */

type Caller =
  | 'flag creator'
  | 'admin'
  | 'owner'
  | 'member in a level-37 role'
  | 'member in a level-21 role with role access to F'
  | 'member in a level-21 role without role access to F'
  | 'member without roles, org level 21'
  | 'member without roles, org level 37'
  | 'user of another organization';

// prettier-ignore
const MATRIX: Array<[Caller, number, number, number, number, boolean | null]> = [
  //                                                      flag       role_access
  // caller                                               GET  PATCH POST DELETE  can_edit
  ['flag creator',                                        200, 200, 201, 204, true],
  ['admin',                                               200, 200, 201, 204, true],
  ['owner',                                               200, 200, 201, 204, true],
  ['member in a level-37 role',                           200, 200, 201, 204, true],
  ['member in a level-21 role with role access to F',     200, 200, 403, 403, true],
  ['member in a level-21 role without role access to F',  200, 403, 403, 403, false],
  ['member without roles, org level 21',                  200, 403, 403, 403, false],
  ['member without roles, org level 37',                  200, 200, 201, 204, true],
  ['user of another organization',                        403, 403, 403, 403, null],
];

const NO_PROJECT_ACCESS = forbidden("You don't have access to the project.");

let app: TestApp;
let steps: ReturnType<typeof roleSteps>;

/** Where each caller acts: their key, the project and flag F (or O's flag), and that organization's admin. */
interface Seat {
  key: string;
  world: World;
  flagId: number;
  admin: Member;
}
const seats = new Map<Caller, Seat>();
let restricted: World;
let restrictedAdmin: Member;
/** Flags of R that the list-vs-retrieve check looks at, made so `can_edit` varies across them. */
const listedFlagIds: number[] = [];

let probe = 0;
/** A role nobody is in, so granting it changes nobody's rights. */
const probeRole = (seat: Seat) =>
  steps.createRole(seat.world.organization, seat.admin.key, { name: `Probe ${++probe}`, feature_flags_access_level: 21 });

beforeAll(async () => {
  app = await startTestApp();
  steps = roleSteps(app);

  // Organization R, flag access level 21.
  restricted = await app.factories.world();
  const r = restricted.organization;
  restrictedAdmin = await app.factories.member(r, 'admin');
  const creator = await app.factories.member(r);
  const inLevel37 = await app.factories.member(r);
  const withRecord = await app.factories.member(r);
  const withoutRecord = await app.factories.member(r);
  const noRoles = await app.factories.member(r);
  await steps.setFlagAccessLevel(r, restrictedAdmin.key, 21);

  const f = await steps.createFlag(restricted.project.id, creator.key, { key: 'flag-f' });
  const editors = await steps.createRole(r, restrictedAdmin.key, { name: 'Editors', feature_flags_access_level: 37 });
  const granted = await steps.createRole(r, restrictedAdmin.key, { name: 'Granted viewers', feature_flags_access_level: 21 });
  const plain = await steps.createRole(r, restrictedAdmin.key, { name: 'Plain viewers', feature_flags_access_level: 21 });
  await steps.addMember(r, restrictedAdmin.key, editors.id, inLevel37.user);
  await steps.addMember(r, restrictedAdmin.key, granted.id, withRecord.user);
  await steps.addMember(r, restrictedAdmin.key, plain.id, withoutRecord.user);
  await steps.grant(restricted.project.id, restrictedAdmin.key, f.id, granted.id);

  // More flags of R for the list check: the owner's (with a record for "Plain viewers"), one
  // without a creator (with a record for "Granted viewers"), and one by the member without roles.
  const byOwner = await steps.createFlag(restricted.project.id, restricted.owner.key, { key: 'flag-by-owner' });
  await steps.grant(restricted.project.id, restrictedAdmin.key, byOwner.id, plain.id);
  const orphan = await steps.createFlag(restricted.project.id, restricted.owner.key, { key: 'flag-orphan' });
  await app.factories.sql('update feature_flag set created_by_id = null where id = ?', [orphan.id]);
  await steps.grant(restricted.project.id, restrictedAdmin.key, orphan.id, granted.id);
  const byNoRoles = await steps.createFlag(restricted.project.id, noRoles.key, { key: 'flag-by-no-roles' });
  listedFlagIds.push(f.id, byOwner.id, orphan.id, byNoRoles.id);

  const inR = (member: Member): Seat => ({ key: member.key, world: restricted, flagId: f.id, admin: restrictedAdmin });
  seats.set('flag creator', inR(creator));
  seats.set('admin', inR(restrictedAdmin));
  seats.set('owner', inR(restricted.owner));
  seats.set('member in a level-37 role', inR(inLevel37));
  seats.set('member in a level-21 role with role access to F', inR(withRecord));
  seats.set('member in a level-21 role without role access to F', inR(withoutRecord));
  seats.set('member without roles, org level 21', inR(noRoles));

  // Organization O keeps the default level 37.
  const open = await app.factories.world();
  const openAdmin = await app.factories.member(open.organization, 'admin');
  const openMember = await app.factories.member(open.organization);
  const openFlag = await steps.createFlag(open.project.id, open.owner.key, { key: 'flag-in-o' });
  seats.set('member without roles, org level 37', { key: openMember.key, world: open, flagId: openFlag.id, admin: openAdmin });

  // Someone whose organization is another one altogether, acting on F.
  const stranger = (await app.factories.world()).owner;
  seats.set('user of another organization', { key: stranger.key, world: restricted, flagId: f.id, admin: restrictedAdmin });
});
afterAll(() => app.close());

/** The body a 403 carries in a given column. */
function refusal(caller: Caller, column: 'get' | 'patch' | 'roles') {
  if (caller === 'user of another organization') return NO_PROJECT_ACCESS;
  return column === 'patch' ? CANNOT_EDIT_FLAG : CANNOT_EDIT_ROLES;
}

describe('authorization matrix for one flag (§2.5, §5.4)', () => {
  it('covers every caller once', () => {
    expect(MATRIX.map(([caller]) => caller).sort()).toEqual([...seats.keys()].sort());
  });

  it.each(MATRIX)(
    '%s: GET %i, PATCH %i, POST role_access %i, DELETE role_access %i, can_edit %s',
    async (caller, get, patch, post, del, canEdit) => {
      const seat = seats.get(caller)!;
      const paths = flagPaths(seat.world.project.id);
      const answers: Record<string, unknown> = {};

      const read = await app.request(paths.flag(seat.flagId), { key: seat.key });
      answers.get = read.status;
      answers.can_edit = read.status === 200 ? read.body.can_edit : null;
      if (read.status === 403) expect(read.body).toEqual(refusal(caller, 'get'));

      const write = await app.request(paths.flag(seat.flagId), { method: 'PATCH', key: seat.key, body: { name: `edited by ${caller}` } });
      answers.patch = write.status;
      if (write.status === 403) expect(write.body).toEqual(refusal(caller, 'patch'));
      if (write.status === 200) expect(write.body).toMatchObject({ name: `edited by ${caller}`, can_edit: true });

      const role = await probeRole(seat);
      const granted = await app.request(paths.roleAccesses(seat.flagId), { method: 'POST', key: seat.key, body: { role_id: role.id } });
      answers.post = granted.status;
      if (granted.status === 403) expect(granted.body).toEqual(refusal(caller, 'roles'));
      if (granted.status === 201) expect(granted.body.role.id).toBe(role.id);

      const record = await steps.grant(seat.world.project.id, seat.admin.key, seat.flagId, (await probeRole(seat)).id);
      const revoked = await app.request(paths.roleAccess(seat.flagId, record.id), { method: 'DELETE', key: seat.key });
      answers.delete = revoked.status;
      if (revoked.status === 403) expect(revoked.body).toEqual(refusal(caller, 'roles'));
      const stillThere = await app.request(paths.roleAccess(seat.flagId, record.id), { key: seat.admin.key });
      expect(stillThere.status).toBe(revoked.status === 204 ? 404 : 200);

      expect(answers).toEqual({ get, patch, post, delete: del, can_edit: canEdit });
    },
  );

  it('shows can_edit the same in the list as in retrieve, for every caller of organization R', async () => {
    const paths = flagPaths(restricted.project.id);
    const seen = new Map<Caller, boolean[]>();
    for (const [caller, seat] of seats) {
      if (seat.world !== restricted || caller === 'user of another organization') continue;
      const list = await app.request(`${paths.flags}?limit=1000`, { key: seat.key });
      expect(list.status).toBe(200);
      const listed = new Map<number, boolean>(list.body.results.map((f: { id: number; can_edit: boolean }) => [f.id, f.can_edit]));
      const retrieved: boolean[] = [];
      for (const id of listedFlagIds) {
        const one = await app.request(paths.flag(id), { key: seat.key });
        retrieved.push(one.body.can_edit);
        expect([caller, id, listed.get(id)]).toEqual([caller, id, one.body.can_edit]);
      }
      seen.set(caller, retrieved);
    }
    // The flags are F, the owner's, one without a creator, and one by the member without roles.
    expect(Object.fromEntries(seen)).toEqual({
      'flag creator': [true, false, false, false],
      admin: [true, true, true, true],
      owner: [true, true, true, true],
      'member in a level-37 role': [true, true, true, true],
      'member in a level-21 role with role access to F': [true, false, true, false],
      'member in a level-21 role without role access to F': [false, true, false, false],
      'member without roles, org level 21': [false, false, false, true],
    });
  });

  it('shows can_edit the same over GraphQL', async () => {
    const query = /* GraphQL */ `
      query Flags($projectId: ID!) {
        featureFlags(projectId: $projectId, limit: 1000) {
          results {
            id
            canEdit
          }
        }
      }
    `;
    for (const [caller, seat] of seats) {
      if (seat.world !== restricted || caller === 'user of another organization') continue;
      const rest = await app.request(`${flagPaths(restricted.project.id).flags}?limit=1000`, { key: seat.key });
      const graphql = await app.graphql(query, { projectId: String(restricted.project.id) }, seat.key);
      expect(graphql.body.errors).toBeUndefined();
      const fromRest = rest.body.results.map((f: { id: number; can_edit: boolean }) => [f.id, f.can_edit]);
      const fromGraphQL = graphql.body.data.featureFlags.results.map((f: { id: number; canEdit: boolean }) => [f.id, f.canEdit]);
      expect([caller, fromGraphQL]).toEqual([caller, fromRest]);
    }
  });
});
