import { BigIntType, Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Project } from '../project/project.entity';
import { Person } from './person.entity';
import { stampNow } from '../../clock';

/** One distinct id of a person; a distinct id belongs to at most one person per project. */
@Entity({ tableName: 'person_distinct_id' })
@Unique({ properties: ['project', 'distinctId'] })
export class PersonDistinctId {
  [OptionalProps]?: 'id' | 'addedAt';

  @PrimaryKey({ type: new BigIntType('number'), autoincrement: true })
  id!: number;

  @ManyToOne(() => Project, { deleteRule: 'cascade' })
  project!: Project;

  @Property({ type: 'text' })
  distinctId!: string;

  @Index()
  @ManyToOne(() => Person, { deleteRule: 'cascade' })
  person!: Person;

  @Property({ type: 'timestamptz', onCreate: stampNow })
  addedAt!: Date;
}
