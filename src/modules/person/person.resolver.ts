import { Arg, Args, Ctx, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { PersonListArgs } from './person.inputs';
import { Person } from './person.entity';
import { PersonService } from './person.service';

const PersonPage = PageOf(Person, 'PersonPage', 'persons');

@Resolver(() => Person)
export class PersonResolver {
  @Query(() => PersonPage, { description: "A project's persons, newest first (needs `person:read`)." })
  persons(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: PersonListArgs,
  ) {
    return PersonService.list(ctx, projectId, args);
  }

  @Query(() => Person, {
    description: 'One person by integer id or uuid; a person merged into another is not found (needs `person:read`).',
  })
  person(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Arg('id', () => String, { description: "The person's integer id or uuid." }) id: string,
  ) {
    return PersonService.get(ctx, projectId, id);
  }

  @FieldResolver(() => [String], { description: "The person's distinct ids, oldest first." })
  distinctIds(@Root() person: Person, @Ctx() ctx: AppContext) {
    return ctx.loaders.personDistinctIds.load(person.id);
  }

  @FieldResolver(() => String, { description: '`properties.email` if it is a non-empty string, else the newest distinct id.' })
  async name(@Root() person: Person, @Ctx() ctx: AppContext) {
    const email = person.properties.email;
    if (typeof email === 'string' && email !== '') return email;
    const ids = await ctx.loaders.personDistinctIds.load(person.id);
    return ids[ids.length - 1] ?? '';
  }
}
