import { ApiProperty } from '@nestjs/swagger';
import { TaskDto } from './task.dto';

export class TaskResponseDto {
  @ApiProperty({ type: TaskDto })
  task: TaskDto;
}

export class TaskPageResponseDto {
  @ApiProperty({ type: [TaskDto], description: 'Newest first' })
  tasks: TaskDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The `cursor` of the next page; null on the last one.',
    example: null,
  })
  nextCursor: string | null;
}
