import { startTestApp, type TestApp } from '../helpers/test-app';
import type { Member, World } from '../helpers/factories';

/**
 * `organizationMembers` and `Organization.membershipLevel`: what the console's role pages need to add
 * members and to know whether to offer admin controls (docs/console.md "Roles"; docs/rest-api.md §5).
 */

let app: TestApp;
let world: World;
let admin: Member;
let member: Member;

const MEMBERS = `query ($organizationId: ID!, $limit: Int, $offset: Int) {
  organizationMembers(organizationId: $organizationId, limit: $limit, offset: $offset) {
    count results { id level joinedAt user { id uuid email } } } }`;
const LEVELS = `query { me { organizations { id membershipLevel } } }`;

beforeAll(async () => {
  app = await startTestApp();
  world = await app.factories.world();
  admin = await app.factories.member(world.organization, 'admin');
  member = await app.factories.member(world.organization);
});
afterAll(() => app.close());

describe('organizationMembers', () => {
  it('lists the active members in the order they joined, with their level, paged', async () => {
    const res = await app.graphql(MEMBERS, { organizationId: world.organization.id }, member.key);
    expect(res.body.errors).toBeUndefined();
    const page = res.body.data.organizationMembers;
    expect(page.count).toBe(3);
    expect(page.results.map((m: { level: string; user: { email: string } }) => [m.user.email, m.level])).toEqual([
      [world.owner.user.email, 'OWNER'],
      [admin.user.email, 'ADMIN'],
      [member.user.email, 'MEMBER'],
    ]);
    expect(page.results[1].user.uuid).toBe(admin.user.uuid);

    const second = await app.graphql(MEMBERS, { organizationId: '@current', limit: 1, offset: 1 }, member.key);
    expect(second.body.data.organizationMembers).toEqual({ count: 3, results: [page.results[1]] });
  });

  it('leaves out deactivated users', async () => {
    const gone = await app.factories.member(world.organization);
    await app.factories.sql('update app_user set is_active = false where id = ?', [gone.user.id]);
    const res = await app.graphql(MEMBERS, { organizationId: world.organization.id, limit: 1000 }, world.owner.key);
    const emails = res.body.data.organizationMembers.results.map((m: { user: { email: string } }) => m.user.email);
    expect(emails).not.toContain(gone.user.email);
  });

  it('is refused outside the organization and without organization:read, like the role list', async () => {
    const outsider = await app.factories.member(null);
    const notMember = await app.graphql(MEMBERS, { organizationId: world.organization.id }, outsider.key);
    expect(notMember.body.errors?.[0]).toMatchObject({ message: "You don't belong to the organization." });
    const scoped = await app.factories.member(world.organization, 'member', { scopes: ['feature_flag:read'] });
    const noScope = await app.graphql(MEMBERS, { organizationId: world.organization.id }, scoped.key);
    expect(noScope.body.errors?.[0]).toMatchObject({ message: "API key missing required scope 'organization:read'" });
  });
});

describe('Organization.membershipLevel', () => {
  it("is the caller's own level", async () => {
    const level = async (key: string) => (await app.graphql(LEVELS, {}, key)).body.data.me.organizations[0].membershipLevel;
    expect(await level(world.owner.key)).toBe('OWNER');
    expect(await level(admin.key)).toBe('ADMIN');
    expect(await level(member.key)).toBe('MEMBER');
  });
});
