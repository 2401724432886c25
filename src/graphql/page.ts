import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

/** `{count, results}`: the GraphQL side of every paginated list (REST adds next/previous). */
export function PageOf<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  class Page {
    @Field(() => Int) count!: number;
    @Field(() => [item]) results!: T[];
  }
  return Page;
}
