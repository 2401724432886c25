import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * `{count, results}`: the GraphQL side of every paginated list (REST adds next/previous).
 * `items` names what the list holds, in the plural, for the schema's descriptions ("feature flags").
 */
export function PageOf<T extends object>(item: ClassType<T>, name: string, items: string) {
  @ObjectType(name, { description: `One page of ${items}, with the total over all pages.` })
  class Page {
    @Field(() => Int, { description: `How many ${items} match, over all pages.` }) count!: number;
    @Field(() => [item], { description: `This page's ${items}, in the list's order.` }) results!: T[];
  }
  return Page;
}
