import { refuseUniqueViolation } from '../../db/unique-violation';
import { accessOrganization, requireAdmin } from '../../auth/organization-access';
import { parseId, callerReference, forgetStandings } from '../../auth/access';
import type { AppContext } from '../../context';
import { fieldErrors, requestErrors } from '../../errors';
import { findPage, type Page, type PageArgs } from '../../pagination';
import { requireObject, hasField } from '../../validation/fields';
import { pyRepr } from '../../validation/python';
import { DEFAULT_FLAG_ACCESS_LEVEL } from './role.entity';
import { FEATURE_FLAGS_RESOURCE, OrganizationResourceAccess } from './organization-resource-access.entity';
import { roleErrors } from './role.errors';
import { parseFlagAccessLevel } from './role.service';

/**
 * The organization's default access level per resource (docs/rest-api.md §5.3). Only `feature flags`
 * exists; without a record its level is 37, and deleting the record restores 37.
 */
export const ResourceAccessService = {
  async list(ctx: AppContext, organizationRef: unknown, args: PageArgs): Promise<Page<OrganizationResourceAccess>> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    return findPage(ctx.em, OrganizationResourceAccess, { organization: organization.id }, { createdAt: 'asc', id: 'asc' }, args);
  },

  async get(ctx: AppContext, organizationRef: unknown, id: unknown): Promise<OrganizationResourceAccess> {
    const { organization } = await accessOrganization(ctx, organizationRef, 'organization:read');
    return findRecord(ctx, organization.id, id);
  },

  async create(ctx: AppContext, organizationRef: unknown, raw: unknown): Promise<OrganizationResourceAccess> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    requireAdmin(access);
    const input = requireObject(raw);
    if (!hasField(input, 'resource')) throw fieldErrors.required('resource');
    if (input.resource !== FEATURE_FLAGS_RESOURCE) throw fieldErrors.invalidChoice('resource', pyRepr(input.resource));
    const level = hasField(input, 'accessLevel') ? parseFlagAccessLevel(input.accessLevel, 'access_level') : DEFAULT_FLAG_ACCESS_LEVEL;
    if (await ctx.em.count(OrganizationResourceAccess, { organization: access.organization.id, resource: FEATURE_FLAGS_RESOURCE })) {
      throw roleErrors.resourceAccessExists();
    }
    const record = ctx.em.create(OrganizationResourceAccess, {
      organization: access.organization,
      resource: FEATURE_FLAGS_RESOURCE,
      accessLevel: level,
      createdBy: callerReference(ctx.em, access.caller),
    });
    await refuseUniqueViolation(() => ctx.em.flush(), roleErrors.resourceAccessExists);
    forgetStandings(ctx);
    return record;
  },

  async update(
    ctx: AppContext,
    organizationRef: unknown,
    id: unknown,
    raw: unknown,
    mode: 'patch' | 'put' = 'patch',
  ): Promise<OrganizationResourceAccess> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const record = await findRecord(ctx, access.organization.id, id);
    requireAdmin(access);
    const input = requireObject(raw);
    if (hasField(input, 'resource') && input.resource !== FEATURE_FLAGS_RESOURCE) {
      throw fieldErrors.invalidChoice('resource', pyRepr(input.resource));
    }
    if (hasField(input, 'accessLevel')) record.accessLevel = parseFlagAccessLevel(input.accessLevel, 'access_level');
    else if (mode === 'put') throw fieldErrors.required('access_level');
    await ctx.em.flush();
    forgetStandings(ctx);
    return record;
  },

  async delete(ctx: AppContext, organizationRef: unknown, id: unknown): Promise<OrganizationResourceAccess> {
    const access = await accessOrganization(ctx, organizationRef, 'organization:write');
    const record = await findRecord(ctx, access.organization.id, id);
    requireAdmin(access);
    await ctx.em.nativeDelete(OrganizationResourceAccess, { id: record.id });
    forgetStandings(ctx);
    return record;
  },
};

async function findRecord(ctx: AppContext, organizationId: string, id: unknown): Promise<OrganizationResourceAccess> {
  const recordId = parseId(id);
  const record = recordId ? await ctx.em.findOne(OrganizationResourceAccess, { id: recordId, organization: organizationId }) : null;
  if (!record) throw requestErrors.notFound();
  return record;
}
