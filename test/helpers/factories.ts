import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Organization } from '../../src/modules/organization/organization.entity';
import { OrganizationService, type MembershipLevelName } from '../../src/modules/organization/organization.service';
import { PersonalApiKeyService, type KeyOptions } from '../../src/modules/personal-api-key/personal-api-key.service';
import type { Project } from '../../src/modules/project/project.entity';
import { ProjectService } from '../../src/modules/project/project.service';
import type { User } from '../../src/modules/user/user.entity';
import { UserService } from '../../src/modules/user/user.service';

const unique = () => randomBytes(4).toString('hex');

export interface Member {
  user: User;
  key: string;
}

export interface World {
  organization: Organization;
  project: Project;
  /** The organization's owner. */
  owner: Member;
}

/**
 * Small factories over the same services the CLI uses (keys are made outside the REST surface).
 * Every call makes fresh organizations, users and e-mails, so test files never collide.
 */
export class Factories {
  constructor(private readonly orm: MikroORM) {}

  async world(): Promise<World> {
    return this.orm.em.fork().transactional(async (em) => {
      const organization = OrganizationService.create(em, `Org ${unique()}`);
      const project = ProjectService.create(em, organization, 'Project');
      await em.flush();
      const user = await UserService.create(em, { email: `owner-${unique()}@example.com`, firstName: 'Owner' });
      await OrganizationService.addMember(em, organization, user, 'owner');
      const { key } = await PersonalApiKeyService.create(em, user);
      return { organization, project, owner: { user, key } };
    });
  }

  async project(organization: Organization, name = 'Another project'): Promise<Project> {
    return this.orm.em
      .fork()
      .transactional(async (em) => ProjectService.create(em, em.getReference(organizationClass(organization), organization.id), name));
  }

  async member(organization: Organization | null, level: MembershipLevelName = 'member', keyOptions: KeyOptions = {}): Promise<Member> {
    return this.orm.em.fork().transactional(async (em) => {
      const user = await UserService.create(em, { email: `user-${unique()}@example.com`, firstName: 'User' });
      if (organization)
        await OrganizationService.addMember(em, em.getReference(organizationClass(organization), organization.id), user, level);
      const { key } = await PersonalApiKeyService.create(em, user, keyOptions);
      return { user, key };
    });
  }

  async key(user: User, options: KeyOptions = {}): Promise<string> {
    return this.orm.em
      .fork()
      .transactional(async (em) => (await PersonalApiKeyService.create(em, em.getReference(userClass(user), user.id), options)).key);
  }

  /** Runs SQL directly (e.g. to deactivate a user); returns the rows. */
  sql(query: string, params: unknown[] = []): Promise<any[]> {
    return this.orm.em.getConnection().execute(query, params);
  }
}

const organizationClass = (organization: Organization) => organization.constructor as typeof Organization;
const userClass = (user: User) => user.constructor as typeof User;
