import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../context';
import { PROJECT_ID_DESCRIPTION } from '../../graphql/arguments';
import { PageOf } from '../../graphql/page';
import { EventListArgs, EventNameArgs } from './event.inputs';
import { Event } from './event.entity';
import { EventService } from './event.service';

const EventPage = PageOf(Event, 'EventPage', 'events');

@Resolver(() => Event)
export class EventResolver {
  @Query(() => EventPage, { description: "A project's events, latest `timestamp` first (needs `query:read`)." })
  events(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: EventListArgs,
  ) {
    return EventService.list(ctx, projectId, args);
  }

  @Query(() => [String], {
    description:
      'Distinct event names the project has stored, most recently seen first, then by name (needs `query:read`); at most `limit`, among the first 10,000 names.',
  })
  eventNames(
    @Ctx() ctx: AppContext,
    @Arg('projectId', () => ID, { description: PROJECT_ID_DESCRIPTION }) projectId: string,
    @Args() args: EventNameArgs,
  ) {
    return EventService.names(ctx, projectId, args);
  }
}
