import { ListTasksQuery } from '../../tasks/dto/list-tasks-query.dto';

/** A page of a project's runs, newest first: the paging of GET …/tasks. */
export class ListRunsQuery extends ListTasksQuery {}
